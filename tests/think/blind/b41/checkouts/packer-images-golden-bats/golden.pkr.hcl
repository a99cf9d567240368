source "amazon-ebs" "golden" {
  ami_name      = "golden-${local.ts}"
  instance_type = "t3.small"
  region        = var.region
  source_ami_filter {
    filters     = { name = "al2023-ami-2023.*-x86_64" }
    owners      = ["amazon"]
    most_recent = true
  }
  ssh_username = "ec2-user"
}

build {
  sources = ["source.amazon-ebs.golden"]
  provisioner "shell" {
    scripts = ["scripts/harden.sh", "scripts/agents.sh"]
  }
}
