package com.acme.lint

import com.intellij.codeInspection.LocalInspectionTool
import com.intellij.codeInspection.ProblemHighlightType
import com.intellij.codeInspection.ProblemsHolder
import com.intellij.openapi.util.TextRange
import com.intellij.psi.PsiElementVisitor
import com.intellij.psi.PsiFile

class RuleInspection : LocalInspectionTool() {

    override fun buildVisitor(holder: ProblemsHolder, isOnTheFly: Boolean): PsiElementVisitor =
        object : PsiElementVisitor() {
            override fun visitFile(file: PsiFile) {
                val text = file.text
                RuleSet.default().forEach { rule ->
                    rule.findRanges(text).forEach { range ->
                        report(holder, file, rule, range)
                    }
                }
            }
        }

    private fun report(holder: ProblemsHolder, file: PsiFile, rule: Rule, range: TextRange) {
        val type = if (rule.severity == Severity.WEAK) ProblemHighlightType.WEAK_WARNING
                   else ProblemHighlightType.GENERIC_ERROR_OR_WARNING
        holder.registerProblem(file, rule.message, type, range)
    }
}
