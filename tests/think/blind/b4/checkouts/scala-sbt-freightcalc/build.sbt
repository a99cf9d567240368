ThisBuild / scalaVersion := "2.13.15"
ThisBuild / organization := "com.haulio"
ThisBuild / semanticdbEnabled := true
ThisBuild / semanticdbVersion := scalafixSemanticdb.revision
ThisBuild / scalacOptions ++= Seq("-Xlint", "-Wunused:imports")

lazy val rates = (project in file("modules/rates"))
  .settings(
    name := "freight-rates",
    libraryDependencies ++= Seq(
      "org.scalatest" %% "scalatest" % "3.2.19" % Test
    )
  )

lazy val root = (project in file("."))
  .aggregate(rates)
  .settings(publish / skip := true)

addCommandAlias("lint", "scalafmtCheckAll; scalafmtSbtCheck; scalafixAll --check")
addCommandAlias("fmt", "scalafmtAll; scalafmtSbt; scalafixAll")
addCommandAlias("ci", "lint; test")
