def worker_count(vcpus, per_cpu=1):
    return int(vcpus) * per_cpu


class FilterModule(object):
    def filters(self):
        return {"nginx_worker_count": worker_count}
