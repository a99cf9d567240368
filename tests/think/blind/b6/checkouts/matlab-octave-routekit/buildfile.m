function plan = buildfile
import matlab.buildtool.tasks.*
plan = buildplan(localfunctions);
plan("check") = CodeIssuesTask("src");
plan("test") = TestTask("tests", SourceFiles="src");
plan.DefaultTasks = ["check" "test"];
end
