SUMMARY = "Modbus TCP to MQTT forwarding daemon"
LICENSE = "GPL-2.0-only"
LIC_FILES_CHKSUM = "file://COPYING;md5=b234ee4d69f5fce4486a80fdaf4a4263"
DEPENDS = "libmodbus mosquitto"

SRC_URI = "git://git.example-corp.com/platform/modbusd.git;protocol=https;branch=main \
           file://run-ptest"
SRCREV = "4a7c2e9d0b1f3e5c6a8d9b0e1f2a3c4d5e6f7a8b"
S = "${WORKDIR}/git"

inherit autotools pkgconfig ptest

do_compile_ptest() {
    oe_runmake -C tests buildtest-TESTS
}
do_install_ptest() {
    install -d ${D}${PTEST_PATH}/tests
    install -m 0755 ${B}/tests/test_regmap ${B}/tests/test_scaling ${D}${PTEST_PATH}/tests/
}
