rootProject.name = "billing-api"
