rootProject.name = "inventory-api"
