package com.acme.yamlhelper

import com.intellij.testFramework.fixtures.BasePlatformTestCase

class SchemaMappingTest : BasePlatformTestCase() {
    fun testDeploymentFileGetsSchema() {
        val file = myFixture.configureByText("deploy.acme.yaml", "kind: AcmeService\n")
        val schema = SchemaCatalog.load().firstOrNull { it.matches(file.virtualFile) }
        assertNotNull(schema)
        assertEquals("acme-service.schema.json", schema!!.fileName)
    }
}
