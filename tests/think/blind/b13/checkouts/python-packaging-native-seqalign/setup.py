import numpy as np
from Cython.Build import cythonize
from setuptools import Extension, setup

setup(
    ext_modules=cythonize(
        [Extension("seqalign._sw", ["src/seqalign/_sw.pyx"], include_dirs=[np.get_include()],
                   extra_compile_args=["-O3", "-march=x86-64-v2"])],
        language_level=3,
        compiler_directives={"boundscheck": False, "wraparound": False},
    )
)
