from django import forms
from django.contrib.auth.forms import PasswordChangeForm, PasswordResetForm, UserCreationForm
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from . import signin_throttle
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


RESET_SUBJECT_TEMPLATE = "accounts/password_reset_subject.txt"
RESET_EMAIL_TEMPLATE = "accounts/password_reset_email.txt"


class PasswordResetRequestForm(PasswordResetForm):
    """The reset page's form. Saving it only hands the address to a task (accounts/tasks.py),
    which looks for accounts and sends the mails off the request path: the page answers a
    known address and an unknown one alike, in the same time. (How many requests one client
    may make: PASSWORD_RESETS_PER_ADDRESS, in the view.)"""

    def save(self, domain_override=None, use_https=False, request=None, **unused):
        from .tasks import send_password_reset  # (tasks.py imports this module)
        send_password_reset.delay(self.cleaned_data["email"], domain_override or request.get_host(),
                                  use_https, translation.get_language())


class PasswordResetMailForm(PasswordResetForm):
    """The task's side: Django's reset mails, each in the language its player chose."""

    def send_mail(self, subject_template_name, email_template_name, context, from_email, to_email,
                  html_email_template_name=None):
        # In the language the player chose for their account, else the page's.
        language = Profile.of(context["user"]).language or translation.get_language()
        with translation.override(language):
            super().send_mail(subject_template_name, email_template_name, context, from_email,
                              to_email, html_email_template_name)


class PasswordCheckedLikeSignIn(forms.Form):
    """A form that asks a signed-in user's password, checked as a sign-in is
    (signin_throttle.check_password): ``locked`` tells the view to answer 429. The forms it
    is mixed into take the user first and keep it as ``user``."""

    wrong_password: str

    def __init__(self, user, request, *args, **kwargs):
        self.request = request
        self.locked = False
        super().__init__(user, *args, **kwargs)

    def check(self, password: str) -> str:
        try:
            right = signin_throttle.check_password(self.request, self.user, password)
        except signin_throttle.PasswordChecksLocked as locked:
            self.locked = True
            raise ValidationError(str(locked), code="locked") from None
        if not right:
            raise ValidationError(self.wrong_password, code="wrong_password")
        return password


class CountedPasswordChangeForm(PasswordCheckedLikeSignIn, PasswordChangeForm):
    wrong_password = PasswordChangeForm.error_messages["password_incorrect"]

    def clean_old_password(self):
        return self.check(self.cleaned_data["old_password"])


class PrivacyForm(forms.ModelForm):
    class Meta:
        model = Profile
        fields = ("telemetry_enabled", "public_profile")
        help_texts = {
            "telemetry_enabled": _("Anonymous statistics about games and connection problems. "
                                   "Off: no browser signed in to this account sends any."),
            "public_profile": _("Anyone may see your stats and finished games at your public page."),
        }


class _UserForm(forms.Form):
    def __init__(self, user, *args, **kwargs):
        self.user = user
        super().__init__(*args, **kwargs)


class DeleteAccountForm(PasswordCheckedLikeSignIn, _UserForm):
    password = forms.CharField(label=_("Your password"), strip=False,
                               widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}))
    wrong_password = _("That is not your password.")

    def clean_password(self):
        return self.check(self.cleaned_data["password"])
