package com.acme.lint

import com.intellij.testFramework.fixtures.BasePlatformTestCase

class RuleInspectionTest : BasePlatformTestCase() {

    override fun setUp() {
        super.setUp()
        myFixture.enableInspections(RuleInspection())
    }

    fun testTrailingWhitespaceIsHighlighted() {
        myFixture.configureByText("a.txt", "hello<weak_warning descr=\"Trailing whitespace\">   </weak_warning>\nworld\n")
        myFixture.checkHighlighting(true, false, true)
    }

    fun testTabIndentIsHighlighted() {
        myFixture.configureByText("b.txt", "<warning descr=\"Tab used for indentation\">\t</warning>x\n")
        myFixture.checkHighlighting()
    }

    fun testCleanFileHasNoProblems() {
        myFixture.configureByText("c.txt", "all good\n")
        assertEmpty(myFixture.doHighlighting())
    }
}
