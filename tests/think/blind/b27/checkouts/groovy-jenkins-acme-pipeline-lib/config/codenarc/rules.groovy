ruleset {
    ruleset('rulesets/basic.xml')
    ruleset('rulesets/imports.xml')
    ruleset('rulesets/unused.xml')
    ruleset('rulesets/exceptions.xml') {
        CatchException { priority = 3 }
    }
}
