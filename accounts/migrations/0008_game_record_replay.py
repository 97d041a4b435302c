from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0007_game_choices_from_specs'),
    ]

    operations = [
        migrations.AddField(
            model_name='gamerecord',
            name='replay',
            field=models.JSONField(blank=True, null=True),
        ),
    ]
