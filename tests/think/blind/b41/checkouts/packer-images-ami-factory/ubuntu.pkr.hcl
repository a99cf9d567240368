packer {
  required_plugins {
    amazon = {
      version = ">= 1.3.1"
      source  = "github.com/hashicorp/amazon"
    }
  }
}

locals {
  ts = formatdate("YYYYMMDD-hhmm", timestamp())
}

source "amazon-ebs" "ubuntu" {
  ami_name      = "web-base-${local.ts}"
  instance_type = var.instance_type
  region        = var.region
  vpc_id        = var.vpc_id
  subnet_id     = var.subnet_id
  source_ami_filter {
    filters = {
      name                = "ubuntu/images/hvm-ssd-gp3/ubuntu-noble-24.04-amd64-server-*"
      root-device-type    = "ebs"
      virtualization-type = "hvm"
    }
    most_recent = true
    owners      = ["099720109477"]
  }
  ssh_username = "ubuntu"
}

build {
  sources = ["source.amazon-ebs.ubuntu"]

  provisioner "file" {
    source      = "files/"
    destination = "/tmp/files"
  }

  provisioner "shell" {
    scripts = ["scripts/base.sh", "scripts/nginx.sh", "scripts/cleanup.sh"]
  }

  # image tests: goss runs inside the instance before the AMI is taken
  provisioner "file" {
    source      = "tests/goss.yaml"
    destination = "/tmp/goss.yaml"
  }
  provisioner "shell" {
    inline = [
      "curl -fsSL https://github.com/goss-org/goss/releases/download/v0.4.9/goss-linux-amd64 -o /tmp/goss",
      "chmod +x /tmp/goss",
      "sudo /tmp/goss -g /tmp/goss.yaml validate --format rspecish",
    ]
  }
}
