rootProject.name = "billing-gateway"
