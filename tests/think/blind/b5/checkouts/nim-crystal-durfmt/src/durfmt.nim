import durfmt/[format, parse]
export format, parse
