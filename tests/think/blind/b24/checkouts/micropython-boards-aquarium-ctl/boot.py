import gc
gc.collect()
