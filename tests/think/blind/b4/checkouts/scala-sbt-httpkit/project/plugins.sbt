addSbtPlugin("org.scalameta" % "sbt-scalafmt" % "2.5.2")
