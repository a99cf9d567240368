import azure.functions as func

from blueprints.points import bp as points_bp

app = func.FunctionApp()
app.register_functions(points_bp)
