{
  resources: {
    requests: { cpu: '50m', memory: '128Mi' },
    limits: { memory: '256Mi' },
  },
  podSpec(cfg={}):: {
    terminationGracePeriodSeconds: 30,
    securityContext: { runAsNonRoot: true },
  },
}
