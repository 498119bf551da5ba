// The page of each tool id; tools without one get the generic page.
import { renderAdvisor } from './advisor';
import { renderFrameworkOpStats } from './framework_op_stats';
import { renderGeneric } from './generic';
import { renderHloStats } from './hlo_stats';
import { renderGraphViewer } from './graph_viewer';
import { renderInputPipeline } from './input_pipeline';
import { renderKernelStats } from './kernel_stats';
import { renderMemoryProfile } from './memory_profile';
import { renderMemoryViewer } from './memory_viewer';
import { renderMultiGpu } from './multi_gpu';
import { renderOpProfile } from './op_profile';
import { renderOverview } from './overview';
import { renderPodViewer } from './pod_viewer';
import { toolTitle, type PageInfo } from './page';
import { renderRooflineModel } from './roofline_model';
import { renderTfDataBottleneck } from './tf_data_bottleneck';
import { renderTraceViewer } from './trace_viewer';

const PAGES: Record<string, PageInfo> = {
  overview_page: { title: 'Overview', render: renderOverview, perStep: true },
  input_pipeline_analyzer: { title: 'Input pipeline analyzer', render: renderInputPipeline, usesTables: true, perStep: true },
  framework_op_stats: { title: 'Framework op stats', render: renderFrameworkOpStats, usesTables: true, perStep: true, ownOptions: ['include_idle'] },
  kernel_stats: { title: 'Kernel stats', render: renderKernelStats, perStep: true },
  advisor: { title: 'Advisor', render: renderAdvisor },
  pod_viewer: { title: 'Pod viewer', render: renderPodViewer },
  memory_profile: { title: 'Memory profile', render: renderMemoryProfile, perStep: true, usesTimeRange: true, ownOptions: ['start_ps', 'end_ps'] },
  trace_viewer: { title: 'Trace viewer', render: renderTraceViewer },
  multi_gpu: { title: 'Multi-GPU', render: renderMultiGpu, usesTables: true, ownOptions: ['link_gbps', 'parameters'] },
  op_profile: { title: 'Op profile', render: renderOpProfile, perStep: true, ownOptions: ['include_idle'] },
  hlo_stats: { title: 'HLO stats', render: renderHloStats, usesTables: true, perStep: true },
  roofline_model: { title: 'Roofline model', render: renderRooflineModel, usesTables: true, perStep: true },
  memory_viewer: { title: 'Memory viewer', render: renderMemoryViewer, ownOptions: ['module'] },
  graph_viewer: { title: 'Graph viewer', render: renderGraphViewer, ownOptions: ['module', 'op', 'hops', 'max_nodes'] },
  tf_data_bottleneck_analysis: { title: 'tf.data bottleneck analysis', render: renderTfDataBottleneck, usesTables: true },
};

export function pageFor(tool: string): PageInfo {
  return PAGES[tool] ?? { title: toolTitle(tool), render: renderGeneric };
}
