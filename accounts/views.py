"""Thin views: forms in forms.py, statistics in stats.py, the chart's geometry in charts.py."""
from django.contrib import messages
from django.contrib.auth import get_user_model, login, logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse, reverse_lazy
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from games.engines.base import GameError

from . import deletion, language, leaderboard, signin_throttle, throttle
from .charts import results_chart
from .export import export_data
from .forms import (
    CountedPasswordChangeForm,
    DeleteAccountForm,
    PasswordResetRequestForm,
    PrivacyForm,
    SignUpForm,
)
from .models import Profile
from .stats import player_stats


def _safe_next(request, default: str) -> str:
    target = request.POST.get("next") or request.GET.get("next")
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                                  require_https=request.is_secure()):
        return target
    return default


def _too_many(form, seconds: int, message: str):
    """Puts the refusal of a per-address limit on the form: its page is then answered 429."""
    minutes = max(1, -(-seconds // 60))
    form.add_error(None, message % {"minutes": minutes})
    form.retry_after = seconds


def _refused(response, form):
    """429 with Retry-After for a form refused by a limit (``_too_many``), else 400."""
    seconds = getattr(form, "retry_after", None)
    response.status_code = 429 if seconds else 400
    if seconds:
        response["Retry-After"] = str(seconds)
    return response


def signup(request):
    if request.user.is_authenticated:
        return redirect("accounts:me")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        wait = throttle.seconds_to_wait("SIGN_UPS_PER_ADDRESS", request)
        if wait:
            _too_many(form, wait, ngettext(
                "Too many new accounts from your network. Please try again in %(minutes)d minute.",
                "Too many new accounts from your network. Please try again in %(minutes)d minutes.",
                -(-wait // 60)))
        else:
            user = form.save()
            # Named because several backends are configured (the throttles are the others).
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, _("Welcome, %(name)s: your account is ready.") % {"name": user.get_username()})
            response = redirect(_safe_next(request, reverse("accounts:me")))
            language.apply_on_sign_in(request, user, response)
            signin_throttle.remember_device(response, user)
            return response
    response = render(request, "accounts/signup.html", {"form": form, "next": _safe_next(request, "")})
    return _refused(response, form) if form.errors else response


class SignInView(auth_views.LoginView):
    """Locks after repeated failures: accounts/signin_throttle.py answers those with 429."""

    template_name = "accounts/login.html"
    redirect_authenticated_user = True

    def form_valid(self, form):
        response = super().form_valid(form)
        language.apply_on_sign_in(self.request, form.get_user(), response)
        signin_throttle.remember_device(response, form.get_user())
        return response

    def form_invalid(self, form):
        response = super().form_invalid(form)
        response.status_code = 400
        return response


class PasswordChangeView(auth_views.PasswordChangeView):
    """The current password is checked as a sign-in is (forms.PasswordCheckedLikeSignIn)."""

    form_class = CountedPasswordChangeForm
    template_name = "accounts/password_change.html"
    success_url = reverse_lazy("accounts:password_change_done")

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "request": self.request}

    def form_valid(self, form):
        messages.success(self.request, _("Your new password is saved."))
        return super().form_valid(form)

    def form_invalid(self, form):
        return _locked(super().form_invalid(form), form)


def _locked(response, form):
    """429 with Retry-After when the password check was refused by the lock."""
    if form.locked:
        response.status_code = 429
        response["Retry-After"] = str(signin_throttle.lock_seconds())
    return response


class PasswordResetView(auth_views.PasswordResetView):
    """At most PASSWORD_RESETS_PER_ADDRESS requests from one client address, whatever e-mail
    address they name; the mails go out from a task (forms.PasswordResetRequestForm)."""

    form_class = PasswordResetRequestForm
    template_name = "accounts/password_reset.html"
    success_url = reverse_lazy("accounts:password_reset_done")

    def form_valid(self, form):
        wait = throttle.seconds_to_wait("PASSWORD_RESETS_PER_ADDRESS", self.request)
        if wait:
            _too_many(form, wait, ngettext(
                "Too many password resets asked from your network. Please try again in %(minutes)d minute.",
                "Too many password resets asked from your network. Please try again in %(minutes)d minutes.",
                -(-wait // 60)))
            return _refused(self.form_invalid(form), form)
        return super().form_valid(form)


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    template_name = "accounts/password_reset_confirm.html"
    success_url = reverse_lazy("accounts:password_reset_complete")

    def form_valid(self, form):
        # Whoever can read the account's e-mail may sign in again at once, from anywhere, and
        # this browser is the owner's from now on (a device cookie).
        response = super().form_valid(form)
        signin_throttle.lift_username_lock(form.user.get_username())
        signin_throttle.remember_device(response, form.user)
        return response


def _stats_context(request, user) -> dict:
    stats = player_stats(user, request.GET.get("page") or 1)
    return {"player": user, "stats": stats, "chart": results_chart(stats.days)}


@login_required
def me(request):
    context = _stats_context(request, request.user)
    # request.user.profile (not a fresh query) is the object the header's telemetry snippet reads too.
    context["privacy_form"] = PrivacyForm(instance=Profile.of(request.user))
    return render(request, "accounts/me.html", context)


@login_required
@require_POST
def privacy(request):
    # Two checkboxes: an absent one is off, so every POST is valid.
    PrivacyForm(request.POST, instance=Profile.of(request.user)).save()
    messages.success(request, _("Your privacy settings are saved."))
    return redirect(reverse("accounts:me") + "#privacy")


@login_required
def export(request):
    response = JsonResponse(export_data(request.user), json_dumps_params={"indent": 2})
    response["Content-Disposition"] = 'attachment; filename="card-table-my-data.json"'
    return response


@login_required
def delete_account(request):
    form = DeleteAccountForm(request.user, request, request.POST or None)
    status = 200
    if request.method == "POST" and form.is_valid():
        try:
            # Every session, seat and record of the account (deletion.py); this browser's
            # session row goes with the others, logout() then clears its cookie.
            deletion.delete_account(request.user)
        except GameError:
            # A room could not be written (database busy or away): nothing was deleted.
            form.add_error(None, _("Your account could not be deleted just now. Please try again."))
            status = 503
        else:
            logout(request)
            return redirect("accounts:deleted")
    elif form.errors:
        return _locked(render(request, "accounts/delete.html", {"form": form}, status=400), form)
    return render(request, "accounts/delete.html", {"form": form}, status=status)


def deleted(request):
    return render(request, "accounts/deleted.html")


def public_profile(request, username):
    # A NUL byte names no player, and PostgreSQL would refuse it in a query with an error.
    user = None if "\x00" in username else (
        get_user_model().objects.select_related("profile")
        .filter(username=username, is_active=True, profile__public_profile=True).first())
    if user is None:
        # The same answer whether the player does not exist or keeps their page private.
        raise Http404(_("No public page for this player."))
    return render(request, "accounts/public.html", _stats_context(request, user))


def memory_leaderboard(request):
    # Names only players whose stats page is public (leaderboard.py).
    viewer = request.user.pk if request.user.is_authenticated else None
    return render(request, "accounts/leaderboard.html", {"board": leaderboard.current_board(viewer)})
