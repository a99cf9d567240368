from operators.feature_batch import FeatureBatchOperator


def test_batches_split():
    op = FeatureBatchOperator(task_id="t", feature_set="fs", batch_size=2)
    assert list(op.batches([1, 2, 3])) == [[1, 2], [3]]
