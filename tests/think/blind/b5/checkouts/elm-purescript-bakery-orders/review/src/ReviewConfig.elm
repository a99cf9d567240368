module ReviewConfig exposing (config)

import NoDebug.Log
import NoUnused.Variables
import Review.Rule exposing (Rule)


config : List Rule
config =
    [ NoDebug.Log.rule
    , NoUnused.Variables.rule
    ]
