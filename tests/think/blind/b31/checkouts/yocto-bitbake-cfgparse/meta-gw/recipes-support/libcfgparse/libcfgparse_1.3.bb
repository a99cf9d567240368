SUMMARY = "Small INI/key-value configuration parser used by the gateway daemons"
LICENSE = "MIT"
LIC_FILES_CHKSUM = "file://LICENSE;md5=0835ade698e0bcf8506ecda2f7b4f302"

SRC_URI = "git://git.example.com/gw/libcfgparse.git;protocol=https;branch=main \
           file://run-ptest \
           "
SRCREV = "e1d4c7a90b2f3e5d6c8a1b0f9e2d3c4b5a6f7e8d"
S = "${WORKDIR}/git"

inherit cmake ptest

EXTRA_OECMAKE += "-DCFGPARSE_BUILD_TESTS=ON"

do_install_ptest() {
    install -d ${D}${PTEST_PATH}/tests
    install -m 0755 ${B}/tests/test_parser ${D}${PTEST_PATH}/tests/
    install -m 0755 ${B}/tests/test_escape ${D}${PTEST_PATH}/tests/
}
