import mill._, scalalib._, scalafmt._

object acme extends SbtModule with ScalafmtModule { m =>
  override def millSourcePath = os.pwd / "acme"
  def scalaVersion = "2.13.14"
  def scalacOptions = Seq("-language:reflectiveCalls", "-deprecation", "-feature", "-Xcheckinit")
  def ivyDeps = Agg(ivy"org.chipsalliance::chisel:6.5.0")
  def scalacPluginIvyDeps = Agg(ivy"org.chipsalliance:::chisel-plugin:6.5.0")
  override def sources = T.sources(millSourcePath / "src")

  object test extends SbtTests with TestModule.ScalaTest with ScalafmtModule {
    override def sources = T.sources(m.millSourcePath / "test" / "src")
    def ivyDeps = m.ivyDeps() ++ Agg(ivy"org.scalatest::scalatest:3.2.19")
  }
}
