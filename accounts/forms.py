from django import forms
from django.contrib.auth.forms import PasswordResetForm, UserCreationForm
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from . import throttle
from .lookalikes import lookalike_taken
from .models import Profile


class SignUpForm(UserCreationForm):
    email = forms.EmailField(
        label=_("E-mail (optional)"), required=False,
        help_text=_("Only used to send you a link if you forget your password."))

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # The site's own words, not Django's stock help ("Required. 150 characters or fewer…").
        self.fields["username"].help_text = _("Your name at the table. Letters, digits and @ . + - _ only.")
        self.fields["password1"].help_text = _("At least 8 characters, not only digits, and not a common password.")
        self.fields["password2"].help_text = ""

    def clean_username(self):
        # The field has already applied NFKC (Django's UsernameField) and the character rules;
        # Django's own check refuses a taken name in another case (and then answers None).
        username = super().clean_username()
        if username and lookalike_taken(username):
            raise ValidationError(
                _("This name looks too much like a player's name that is taken. Please choose another."),
                code="lookalike")
        return username


class ThrottledPasswordResetForm(PasswordResetForm):
    """Sends at most a few reset e-mails an hour to one address. Past that the page answers the
    same as always (it never tells whether an address has an account) and sends nothing."""

    def send_mail(self, subject_template_name, email_template_name, context, from_email, to_email,
                  html_email_template_name=None):
        if throttle.RESET_MAIL.is_blocked(to_email):
            return
        throttle.RESET_MAIL.record(to_email)
        # In the language the player chose for their account, else the page's.
        language = Profile.of(context["user"]).language or translation.get_language()
        with translation.override(language):
            super().send_mail(subject_template_name, email_template_name, context, from_email,
                              to_email, html_email_template_name)


class PrivacyForm(forms.ModelForm):
    class Meta:
        model = Profile
        fields = ("telemetry_enabled", "public_profile")
        help_texts = {
            "telemetry_enabled": _("Anonymous statistics about games and connection problems. "
                                   "Off: no browser signed in to this account sends any."),
            "public_profile": _("Anyone may see your stats and finished games at your public page."),
        }


class DeleteAccountForm(forms.Form):
    password = forms.CharField(label=_("Your password"), strip=False,
                               widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}))

    def __init__(self, user, *args, **kwargs):
        self.user = user
        super().__init__(*args, **kwargs)

    def clean_password(self):
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise ValidationError(_("That is not your password."), code="wrong_password")
        return password
