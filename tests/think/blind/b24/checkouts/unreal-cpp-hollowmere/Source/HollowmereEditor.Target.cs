using UnrealBuildTool;

public class HollowmereEditorTarget : TargetRules
{
	public HollowmereEditorTarget(TargetInfo Target) : base(Target)
	{
		Type = TargetType.Editor;
		DefaultBuildSettings = BuildSettingsVersion.V4;
		IncludeOrderVersion = EngineIncludeOrderVersion.Unreal5_3;
		ExtraModuleNames.Add("Hollowmere");
	}
}
