mock_provider "aws" {}

variables {
  role_name         = "test-irsa"
  oidc_provider_arn = "arn:aws:iam::111122223333:oidc-provider/oidc.eks.eu-west-1.amazonaws.com/id/EXAMPLED539D4633E53DE1B71EXAMPLE"
  namespace         = "payments"
  service_account   = "api"
}

run "trust_subject_is_namespaced" {
  command = plan

  assert {
    condition     = strcontains(data.aws_iam_policy_document.assume.json, "system:serviceaccount:payments:api")
    error_message = "trust policy must scope to the service account"
  }
}
