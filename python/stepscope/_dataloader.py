"""PyTorch DataLoader iterations as pipeline stages (stepscope.pipeline), installed by
stepscope.torch. What the main process can see of a DataLoader becomes tf.data-style
iterator events, so `stepscope analyze --tool tf_data_bottleneck_analysis` names the stage
that holds the steps up:

  num_workers=0   Iterator::Batch::<Dataset>: every batch is one Batch call (the fetch:
                  index the dataset, then collate), around one <Dataset> call per
                  element (dataset[i], or __getitems__ once, or next() of an iterable
                  dataset). The Batch call's self time is collate_fn's (and the fetch
                  loop's); the <Dataset> calls' is __getitem__'s.
  num_workers=N   Iterator::ParallelMap::Batch::<Dataset> with parallelism N: worker
                  processes fetch and collate (forked: they record nothing), so the main
                  process records one ParallelMap call per batch around its wait for the
                  batch, with a ParallelMapConsume whose element_id is the batch's index.
                  Batch and <Dataset> are declared (the graph reads as the loader is
                  built) but have no calls in this process.

<Dataset> is the dataset's class name. The stages are declared when the iterator is
created (iter(loader)); they record only while a session records at host_tracer_level >=
2, and otherwise cost one check per call. Pin memory (a CUDA-only thread in this PyTorch)
is not instrumented.
"""

import re

from torch.utils.data import dataloader as _dataloader

from . import _stepscope
from .pipeline import Builder

_enabled = True
_original_single_init = _dataloader._SingleProcessDataLoaderIter.__init__
_original_multi_init = _dataloader._MultiProcessingDataLoaderIter.__init__


def set_enabled(enabled):
    global _enabled
    _enabled = bool(enabled)


def enabled():
    return _enabled


def _dataset_name(dataset):
    # A stage name may not contain ':', '#', ',' or '=' and has at most 64 bytes.
    name = re.sub(r"[^A-Za-z0-9_.]", "_", type(dataset).__name__)[:64]
    return name or "Dataset"


class _TimedDataset:
    """The fetcher's view of a map-style dataset: each dataset[i] is one source call."""

    def __init__(self, dataset, pipeline, source):
        self._dataset = dataset
        self._pipeline = pipeline
        self._source = source

    def __getitem__(self, index):
        if not _stepscope._records_pipelines():
            return self._dataset[index]
        return self._pipeline.timed_call(self._source, self._dataset.__getitem__, index)

    def __len__(self):
        return len(self._dataset)

    def __getattr__(self, name):
        value = getattr(self._dataset, name)
        if name == "__getitems__" and callable(value):
            pipeline, source = self._pipeline, self._source

            def getitems(indices):
                if not _stepscope._records_pipelines():
                    return value(indices)
                return pipeline.timed_call(source, value, indices)
            return getitems
        return value


class _TimedIterator:
    """An iterable dataset's iterator: each next() is one source call."""

    def __init__(self, iterator, pipeline, source):
        self._iterator = iterator
        self._pipeline = pipeline
        self._source = source

    def __iter__(self):
        return self

    def __next__(self):
        if not _stepscope._records_pipelines():
            return next(self._iterator)
        return self._pipeline.timed_call(self._source, next, self._iterator)


def _declare(loader_iter, num_workers):
    builder = Builder()
    source = builder.source(_dataset_name(loader_iter._dataset))
    batch = builder.batch(source)
    workers = builder.parallel_map(batch, num_workers) if num_workers > 0 else None
    return builder.build(), source, batch, workers


def _instrument_single(loader_iter):
    pipeline, source, batch, _ = _declare(loader_iter, 0)
    fetcher = loader_iter._dataset_fetcher
    if hasattr(fetcher, "dataset_iter"):
        fetcher.dataset_iter = _TimedIterator(fetcher.dataset_iter, pipeline, source)
    else:
        fetcher.dataset = _TimedDataset(fetcher.dataset, pipeline, source)
    fetch = fetcher.fetch

    def timed_fetch(possibly_batched_index):
        if not _stepscope._records_pipelines():
            return fetch(possibly_batched_index)
        return pipeline.timed_call(batch, fetch, possibly_batched_index)
    fetcher.fetch = timed_fetch
    loader_iter._stepscope_pipeline = pipeline


def _instrument_multi(loader_iter):
    pipeline, _, _, workers = _declare(loader_iter, loader_iter._num_workers)
    next_data = loader_iter._next_data

    def timed_next_data():
        if not _stepscope._records_pipelines():
            return next_data()
        # The batch __next__ returns is the one at _rcvd_idx (workers that died are skipped
        # inside, a rare case that keeps this id).
        with pipeline.call(workers), pipeline.consume(workers, loader_iter._rcvd_idx):
            return next_data()
    loader_iter._next_data = timed_next_data
    loader_iter._stepscope_pipeline = pipeline


def _single_init(self, loader):
    _original_single_init(self, loader)
    if _enabled:
        _instrument_single(self)


def _multi_init(self, loader):
    _original_multi_init(self, loader)
    if _enabled:
        _instrument_multi(self)


def install():
    _dataloader._SingleProcessDataLoaderIter.__init__ = _single_init
    _dataloader._MultiProcessingDataLoaderIter.__init__ = _multi_init
