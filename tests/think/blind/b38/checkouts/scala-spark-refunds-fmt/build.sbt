ThisBuild / organization := "com.acme"
ThisBuild / scalaVersion := "2.12.18"
ThisBuild / version      := "0.1.0"

val sparkVersion = "3.5.1"

lazy val root = (project in file("."))
  .settings(
    name := "refunds-etl",
    libraryDependencies ++= Seq(
      "org.apache.spark" %% "spark-sql"  % sparkVersion % Provided,
      "org.scalatest"    %% "scalatest"  % "3.2.18"     % Test
    ),
    Test / fork := true,
    Test / parallelExecution := false,
    Test / javaOptions ++= Seq("-Xmx2g"),
    assembly / assemblyJarName := "refunds-etl-assembly-0.1.jar"
  )
