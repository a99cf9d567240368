package org.acme

class GitUtils implements Serializable {
    def steps
    GitUtils(steps) { this.steps = steps }

    String shortSha() {
        steps.sh(script: 'git rev-parse --short HEAD', returnStdout: true).trim()
    }

    String branchName() {
        steps.env.BRANCH_NAME ?: steps.sh(script: 'git rev-parse --abbrev-ref HEAD', returnStdout: true).trim()
    }
}
