rootProject.name = "kairo"
include(":shared", ":server", ":sync", ":core-db", ":core-network", ":feature-receipts", ":androidApp")
