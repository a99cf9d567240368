import pulumi

from components.database import Database


def _db(multi_az: bool) -> Database:
    return Database("test", subnet_ids=["subnet-1", "subnet-2"], vpc_id="vpc-1",
                    instance_class="db.t4g.small", password="not-a-secret", multi_az=multi_az)


@pulumi.runtime.test
def test_storage_is_encrypted():
    db = _db(False)
    return db.instance.storage_encrypted.apply(lambda enc: assert_true(enc))


@pulumi.runtime.test
def test_prod_keeps_backups():
    db = _db(True)
    return db.instance.backup_retention_period.apply(lambda days: assert_eq(days, 14))


def assert_true(v):
    assert v is True


def assert_eq(a, b):
    assert a == b, f"{a!r} != {b!r}"
