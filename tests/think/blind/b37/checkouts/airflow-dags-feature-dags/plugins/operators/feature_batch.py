from airflow.models import BaseOperator


class FeatureBatchOperator(BaseOperator):
    def __init__(self, *, feature_set, batch_size=5000, **kwargs):
        super().__init__(**kwargs)
        self.feature_set = feature_set
        self.batch_size = batch_size

    def batches(self, ids):
        for i in range(0, len(ids), self.batch_size):
            yield ids[i:i + self.batch_size]
