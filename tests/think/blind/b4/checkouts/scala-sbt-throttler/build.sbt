ThisBuild / scalaVersion := "2.13.15"
ThisBuild / organization := "io.tidepool"

lazy val root = (project in file("."))
  .settings(
    name := "throttler",
    libraryDependencies ++= Seq(
      "com.typesafe"    % "config"              % "1.4.3",
      "org.apache.pekko" %% "pekko-actor-typed" % "1.1.2",
      "org.scalatest"   %% "scalatest"          % "3.2.19" % Test,
      "org.apache.pekko" %% "pekko-actor-testkit-typed" % "1.1.2" % Test
    )
  )
