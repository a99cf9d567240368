from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "pyhdrhist._hdr",
            sources=["src/pyhdrhist/_hdr.c", "src/hdr/hdr_histogram.c"],
            include_dirs=["src/hdr"],
        )
    ]
)
