package org.acme

import org.junit.Test

import static org.junit.Assert.assertEquals

class GitUtilsTest {
    @Test
    void branch_name_prefers_env() {
        def steps = [env: [BRANCH_NAME: 'main'], sh: { Map m -> 'ignored' }]
        assertEquals('main', new GitUtils(steps).branchName())
    }
}
