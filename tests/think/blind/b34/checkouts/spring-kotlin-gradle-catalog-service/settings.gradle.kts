rootProject.name = "catalog-service"
