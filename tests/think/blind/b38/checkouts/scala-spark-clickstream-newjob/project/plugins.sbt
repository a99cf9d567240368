addSbtPlugin("com.eed3si9n"   % "sbt-assembly" % "2.1.5")
addSbtPlugin("org.scalameta"  % "sbt-scalafmt" % "2.5.2")
