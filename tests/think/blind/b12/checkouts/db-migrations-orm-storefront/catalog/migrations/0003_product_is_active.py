from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("catalog", "0002_category_slug")]

    operations = [
        migrations.AddField(model_name="product", name="is_active", field=models.BooleanField(default=True)),
    ]
