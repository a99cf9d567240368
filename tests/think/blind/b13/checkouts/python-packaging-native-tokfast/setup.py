from setuptools import Extension, setup
from Cython.Build import cythonize

setup(
    ext_modules=cythonize(
        [Extension("tokfast._tokenize", ["src/tokfast/_tokenize.pyx"])],
        language_level=3,
    )
)
