variable "role_name" {
  type = string
}

variable "oidc_provider_arn" {
  type = string
}

variable "namespace" {
  type    = string
  default = "default"
}

variable "service_account" {
  type = string
}
