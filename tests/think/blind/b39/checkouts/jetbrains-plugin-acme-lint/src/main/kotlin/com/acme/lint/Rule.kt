package com.acme.lint

import com.intellij.openapi.util.TextRange

enum class Severity { WEAK, NORMAL }

interface Rule {
    val id: String
    val message: String
    val severity: Severity
    fun findRanges(text: CharSequence): List<TextRange>
}

object RuleSet {
    fun default(): List<Rule> = listOf(TrailingWhitespaceRule, TabIndentRule)
}

object TrailingWhitespaceRule : Rule {
    override val id = "trailing-whitespace"
    override val message = "Trailing whitespace"
    override val severity = Severity.WEAK
    private val regex = Regex("[ \\t]+$", RegexOption.MULTILINE)
    override fun findRanges(text: CharSequence) =
        regex.findAll(text).map { TextRange(it.range.first, it.range.last + 1) }.toList()
}

object TabIndentRule : Rule {
    override val id = "tab-indent"
    override val message = "Tab used for indentation"
    override val severity = Severity.NORMAL
    private val regex = Regex("^\\t+", RegexOption.MULTILINE)
    override fun findRanges(text: CharSequence) =
        regex.findAll(text).map { TextRange(it.range.first, it.range.last + 1) }.toList()
}
