module Slugger.Slug

open System.Text.RegularExpressions

let private nonWord = Regex("[^A-Za-z0-9]+", RegexOptions.Compiled)

let slugify (title: string) =
    nonWord.Replace(title.Trim(), "-").Trim('-')
