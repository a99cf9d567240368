ThisBuild / scalaVersion := "3.3.4"
ThisBuild / organization := "app.ledgerly"

lazy val root = (project in file("."))
  .settings(
    name := "fxconv",
    libraryDependencies ++= Seq(
      "io.circe"      %% "circe-parser" % "0.14.10",
      "org.scalameta" %% "munit"        % "1.0.2" % Test
    ),
    Test / parallelExecution := false
  )
