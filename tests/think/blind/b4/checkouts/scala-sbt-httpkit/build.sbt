ThisBuild / scalaVersion := "3.3.4"
ThisBuild / organization := "dev.kestrel"

lazy val root = (project in file("."))
  .settings(
    name := "httpkit",
    libraryDependencies ++= Seq(
      "org.typelevel" %% "cats-effect"   % "3.5.4",
      "org.http4s"    %% "http4s-client" % "0.23.28",
      "org.scalameta" %% "munit"             % "1.0.2" % Test,
      "org.typelevel" %% "munit-cats-effect" % "2.0.0" % Test
    )
  )
