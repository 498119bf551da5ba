"""stepscope.pipeline: record an input pipeline's stages as tf.data iterator events.

The Python face of include/stepscope/pipeline.h. Declare the stages once, in dataset order
(source first); each declaring call returns the stage's reference (an int):

    import stepscope.pipeline as sp

    builder = sp.Builder()
    read = builder.source("TFRecord")
    decode = builder.parallel_map(read, num_workers=4)
    batch = builder.batch(decode)
    ahead = builder.prefetch(batch, buffer_size=2)
    pipeline = builder.build()          # InvalidArgumentError names a malformed pipeline

Then time each call of a stage (one element produced) where it happens:

    with pipeline.call(batch):
        ...

An asynchronous stage (prefetch, parallel_map, custom(..., asynchronous=True)) also marks
the consumer's wait for an element and, on the producing thread, the production of that
element, with the same element id:

    with pipeline.call(ahead), pipeline.consume(ahead, index):   # consumer
        batch = queue.get()
    with pipeline.produce(ahead, index), pipeline.call(batch):   # background thread
        queue.put(make_batch())

Stage calls are events named by tf.data's long name ("Iterator::Prefetch::Batch::...")
with stats id and parent_id, recorded at host_tracer_level >= 2 (stepscope's default), on
the line of the thread that ran them; `stepscope analyze LOGDIR --tool
tf_data_bottleneck_analysis` names the stage to fix. Not profiling, a `with` block costs
the Python calls (about 0.5 us) and records nothing. A block must end on the thread that
entered it. pipeline.timed_call(ref, fn, *args) returns fn(*args) timed as one call of the
stage, cheaper than a with block on hot paths. pipeline.stage(ref) describes a stage (long_name, id, parent_id, kind, ...).
"""

from . import _stepscope

Builder = _stepscope._PipelineBuilder
Pipeline = _stepscope._Pipeline
Stage = _stepscope._PipelineStage

__all__ = ["Builder", "Pipeline", "Stage"]
