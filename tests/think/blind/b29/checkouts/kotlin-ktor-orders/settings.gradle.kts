rootProject.name = "orders-service"
