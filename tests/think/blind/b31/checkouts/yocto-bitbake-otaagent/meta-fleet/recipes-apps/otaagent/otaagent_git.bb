SUMMARY = "Fleet OTA update agent"
LICENSE = "Apache-2.0"
LIC_FILES_CHKSUM = "file://LICENSE;md5=86d3f3a95c324c9479bd8986968f4327"

inherit externalsrc setuptools3 ptest systemd
EXTERNALSRC = "${TOPDIR}/../otaagent"

RDEPENDS:${PN} += "python3-requests python3-json"
RDEPENDS:${PN}-ptest += "python3-pytest python3-unittest-automake-output"
SYSTEMD_SERVICE:${PN} = "otaagent.service"

do_install_ptest() {
    cp -r ${S}/tests ${D}${PTEST_PATH}/
}
