from conan import ConanFile
from conan.tools.cmake import CMake, CMakeToolchain, cmake_layout


class MeshioConan(ConanFile):
    name = "meshio"
    version = "2.0.4"
    license = "MIT"
    description = "Read and write triangle meshes (OBJ, PLY, STL)"
    settings = "os", "compiler", "build_type", "arch"
    options = {"shared": [True, False], "fPIC": [True, False]}
    default_options = {"shared": False, "fPIC": True}
    exports_sources = "CMakeLists.txt", "src/*", "include/*", "tests/*"
    generators = "CMakeDeps"

    def requirements(self):
        self.requires("zlib/1.3.1")
        self.requires("fmt/10.2.1")

    def build_requirements(self):
        self.test_requires("gtest/1.14.0")

    def layout(self):
        cmake_layout(self)

    def generate(self):
        tc = CMakeToolchain(self)
        tc.generate()

    def build(self):
        cmake = CMake(self)
        cmake.configure()
        cmake.build()
        if not self.conf.get("tools.build:skip_test", default=False):
            cmake.test()
