source "amazon-ebs" "rhel9" {
  ami_name      = "rhel9-web-${local.ts}"
  instance_type = "t3.medium"
  region        = var.region
  source_ami_filter {
    filters     = { name = "RHEL-9.4.0_HVM-*-x86_64-*" }
    owners      = ["309956199498"]
    most_recent = true
  }
  ssh_username = "ec2-user"
}

build {
  sources = ["source.amazon-ebs.rhel9"]
  provisioner "ansible" {
    playbook_file = "ansible/site.yml"
    use_proxy     = false
  }
}
