def call(Map args = [:]) {
    String channel = args.channel ?: '#ci-builds'
    String status = currentBuild.currentResult
    String color = status == 'SUCCESS' ? 'good' : 'danger'
    slackSend(channel: channel, color: color,
              message: "${env.JOB_NAME} #${env.BUILD_NUMBER}: ${status} (<${env.BUILD_URL}|open>)")
}
