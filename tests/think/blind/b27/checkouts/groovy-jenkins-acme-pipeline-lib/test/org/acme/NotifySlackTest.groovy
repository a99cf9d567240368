package org.acme

import com.lesfurets.jenkins.unit.BasePipelineTest
import org.junit.Before
import org.junit.Test

import static org.junit.Assert.assertEquals

class NotifySlackTest extends BasePipelineTest {

    @Before
    void setUp() {
        super.setUp()
        helper.registerAllowedMethod('slackSend', [Map], null)
        binding.setVariable('env', [JOB_NAME: 'acme-api/main', BUILD_NUMBER: '7', BUILD_URL: 'https://ci/7/'])
    }

    @Test
    void posts_failure_in_red() {
        binding.setVariable('currentBuild', [currentResult: 'FAILURE'])
        loadScript('vars/notifySlack.groovy').call()
        def call = helper.callStack.find { it.methodName == 'slackSend' }
        assertEquals('danger', call.args[0].color)
    }
}
