rootProject.name = "ledgerly"
include(":androidApp", ":shared")
