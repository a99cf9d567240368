from conan import ConanFile
from conan.tools.cmake import CMake, CMakeToolchain, cmake_layout


class QuatlibConan(ConanFile):
    name = "quatlib"
    version = "1.3.0"
    license = "MIT"
    description = "Quaternion and rotation utilities"
    settings = "os", "compiler", "build_type", "arch"
    options = {"shared": [True, False], "fPIC": [True, False]}
    default_options = {"shared": False, "fPIC": True}
    exports_sources = "CMakeLists.txt", "src/*", "include/*", "tests/*"
    generators = "CMakeDeps"

    def requirements(self):
        pass

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
