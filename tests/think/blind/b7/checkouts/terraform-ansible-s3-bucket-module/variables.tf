variable "bucket_name" {
  description = "Name of the bucket."
  type        = string
}

variable "force_destroy" {
  type    = bool
  default = false
}

variable "tags" {
  type    = map(string)
  default = {}
}

variable "versioning" {
  description = "Enable bucket versioning."
  type        = bool
  default     = true
}
